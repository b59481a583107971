-- Slack: each user's switch and the incoming webhook URL they pasted.
ALTER TABLE `users` ADD `notify_slack` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `slack_webhook_url` text;