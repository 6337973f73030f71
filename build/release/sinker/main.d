build/release/sinker/main.o: sinker/main.c
