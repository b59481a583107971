-- Discord interactions already answered (discord_interactions), by Discord's interaction id, so a
-- signed request posted again within its 5 minutes is refused rather than run twice. Expand only.
CREATE TABLE `discord_interactions` (
	`id` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `discord_interactions_expires` ON `discord_interactions` (`expires_at`);