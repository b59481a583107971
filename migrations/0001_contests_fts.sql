-- Full-text index over contest names (weighted higher at query time) and descriptions.
-- External-content FTS5 table: it stores only the index; triggers keep it in step with contests.
CREATE VIRTUAL TABLE `contests_fts` USING fts5(
	name,
	description,
	content = 'contests',
	content_rowid = 'rowid',
	tokenize = 'unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `contests_fts_insert` AFTER INSERT ON `contests` BEGIN
	INSERT INTO contests_fts (rowid, name, description) VALUES (new.rowid, new.name, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `contests_fts_delete` AFTER DELETE ON `contests` BEGIN
	INSERT INTO contests_fts (contests_fts, rowid, name, description) VALUES ('delete', old.rowid, old.name, old.description);
END;
--> statement-breakpoint
-- Only a change of the indexed text re-indexes a row, so sync updates of times stay cheap.
CREATE TRIGGER `contests_fts_update` AFTER UPDATE OF name, description ON `contests` BEGIN
	INSERT INTO contests_fts (contests_fts, rowid, name, description) VALUES ('delete', old.rowid, old.name, old.description);
	INSERT INTO contests_fts (rowid, name, description) VALUES (new.rowid, new.name, new.description);
END;
