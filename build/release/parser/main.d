build/release/parser/main.o: parser/main.c
