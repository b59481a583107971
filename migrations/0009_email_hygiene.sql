-- Email hygiene: channels the service turned off (channel_blocks), and what the provider reported
-- of an email after accepting it (bounced, complained, delivered).
CREATE TABLE `channel_blocks` (
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`reason` text NOT NULL,
	`blocked_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `channel`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `notification_deliveries` ADD `provider_outcome` text;--> statement-breakpoint
CREATE INDEX `notification_deliveries_provider_message` ON `notification_deliveries` (`provider_message_id`) WHERE provider_message_id IS NOT NULL;