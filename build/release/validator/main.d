build/release/validator/main.o: validator/main.c
