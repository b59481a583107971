-- Web sessions: the web app's cookie sessions are rows of `sessions` too (kind 'web'), so every
-- revocation of a user's sessions ends them as well; existing rows are API sessions.
ALTER TABLE `sessions` ADD `kind` text DEFAULT 'api' NOT NULL;
