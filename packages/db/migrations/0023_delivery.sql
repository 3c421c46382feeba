-- Delivery of recommendations outside the site: one row of settings per reader (digest schedule, mail
-- switch, filters, the hashed Atom feed token, the robot webhook) and the items delivered per channel.
CREATE TABLE "radar"."delivery_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"frequency" text DEFAULT 'off' NOT NULL,
	"weekday" smallint DEFAULT 1 NOT NULL,
	"hour" smallint DEFAULT 8 NOT NULL,
	"time_zone" text DEFAULT 'Asia/Shanghai' NOT NULL,
	"email_enabled" boolean DEFAULT true NOT NULL,
	"paper_filters" jsonb,
	"news_filters" jsonb,
	"feed_token_hash" text,
	"webhook_platform" text,
	"webhook_url" text,
	"webhook_secret" text,
	"schedule_set_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_slot_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_settings_frequency_check" CHECK ("frequency" IN ('off', 'daily', 'weekly')),
	CONSTRAINT "delivery_settings_weekday_check" CHECK ("weekday" BETWEEN 1 AND 7),
	CONSTRAINT "delivery_settings_hour_check" CHECK ("hour" BETWEEN 0 AND 23),
	CONSTRAINT "delivery_settings_webhook_platform_check" CHECK ("webhook_platform" IN ('wecom', 'feishu', 'dingtalk'))
);
--> statement-breakpoint
ALTER TABLE "radar"."delivery_settings" ADD CONSTRAINT "delivery_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "delivery_settings_feed_token_hash_key" ON "radar"."delivery_settings" USING btree ("feed_token_hash");--> statement-breakpoint
CREATE INDEX "delivery_settings_due_idx" ON "radar"."delivery_settings" USING btree ("frequency") WHERE "frequency" <> 'off';--> statement-breakpoint
CREATE TABLE "radar"."delivered_items" (
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"item_kind" text NOT NULL,
	"item_id" bigint NOT NULL,
	"delivered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivered_items_pk" PRIMARY KEY("user_id","channel","item_kind","item_id"),
	CONSTRAINT "delivered_items_channel_check" CHECK ("channel" IN ('email', 'webhook')),
	CONSTRAINT "delivered_items_item_kind_check" CHECK ("item_kind" IN ('paper', 'news'))
);
--> statement-breakpoint
ALTER TABLE "radar"."delivered_items" ADD CONSTRAINT "delivered_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "radar"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "delivered_items_delivered_at_idx" ON "radar"."delivered_items" USING btree ("delivered_at");
