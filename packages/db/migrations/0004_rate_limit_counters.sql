CREATE TABLE "radar"."rate_limit_counters" (
	"key" text COLLATE "C" PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
