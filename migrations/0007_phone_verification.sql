-- Phone verification: the number a WhatsApp code proved, and when. Existing numbers start unverified.
ALTER TABLE `users` ADD `phone_verified_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `phone_verified_number` text;