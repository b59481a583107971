-- The delivery log: each attempt of a delivery with the provider's answer in words, kept as long
-- as its notification (delivery_attempts).
CREATE TABLE `delivery_attempts` (
	`id` integer PRIMARY KEY NOT NULL,
	`notification_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`channel` text NOT NULL,
	`at` integer NOT NULL,
	`outcome` text NOT NULL,
	`message` text NOT NULL,
	FOREIGN KEY (`notification_id`) REFERENCES `notifications`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `delivery_attempts_notification` ON `delivery_attempts` (`notification_id`,`id`);
