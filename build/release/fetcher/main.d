build/release/fetcher/main.o: fetcher/main.c
