build/release/lib/msg.o: lib/msg.c lib/msg.h
lib/msg.h:
