build/release/lib/num.o: lib/num.c lib/num.h
lib/num.h:
