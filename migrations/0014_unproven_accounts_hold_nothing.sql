-- An account whose address is unproven holds no destination: whoever signed up with someone else's
-- address must leave the owner nothing to inherit. From now on the code refuses to attach one
-- before the proof; this detaches what accounts made earlier attached.
DELETE FROM `calendar_feeds` WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `email_verified_at` IS NULL);--> statement-breakpoint
DELETE FROM `push_subscriptions` WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `email_verified_at` IS NULL);--> statement-breakpoint
DELETE FROM `telegram_links` WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `email_verified_at` IS NULL);--> statement-breakpoint
UPDATE `users` SET `telegram_chat_id` = NULL, `notify_telegram` = 0, `discord_webhook_url` = NULL, `notify_discord` = 0, `phone_verified_at` = NULL, `phone_verified_number` = NULL WHERE `email_verified_at` IS NULL;
