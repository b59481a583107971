-- Telegram and Discord: the chat the bot writes to, the Discord webhook, each channel's switch, and
-- the one-time tokens of Telegram deep links.
CREATE TABLE `telegram_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `telegram_links_user` ON `telegram_links` (`user_id`);--> statement-breakpoint
ALTER TABLE `users` ADD `notify_telegram` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `notify_discord` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `telegram_chat_id` text;--> statement-breakpoint
ALTER TABLE `users` ADD `discord_webhook_url` text;