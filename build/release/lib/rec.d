build/release/lib/rec.o: lib/rec.c lib/rec.h
lib/rec.h:
