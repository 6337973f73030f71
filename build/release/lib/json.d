build/release/lib/json.o: lib/json.c lib/rec.h
lib/rec.h:
