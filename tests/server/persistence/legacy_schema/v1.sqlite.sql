-- laizi schema version 1 (v1) on sqlite: Base.metadata.create_all of src/laizi/server/db.py at commit e48a3b3
-- (the pre-Alembic migrate() created this; kept as SQL so the upgrade test needs no old code)

CREATE TABLE chat (
	id INTEGER NOT NULL, 
	room_code VARCHAR(8) NOT NULL, 
	player_id VARCHAR(32), 
	nickname VARCHAR(32) NOT NULL, 
	text VARCHAR(280) NOT NULL, 
	phrase VARCHAR(32), 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id)
);

CREATE INDEX ix_chat_room_code ON chat (room_code);

CREATE TABLE laizi_meta (
	"key" VARCHAR(64) NOT NULL, 
	value TEXT NOT NULL, 
	PRIMARY KEY ("key")
);

CREATE TABLE players (
	id VARCHAR(32) NOT NULL, 
	nickname VARCHAR(32) NOT NULL, 
	created_at DATETIME NOT NULL, 
	last_seen DATETIME NOT NULL, 
	PRIMARY KEY (id)
);

CREATE TABLE rooms (
	code VARCHAR(8) NOT NULL, 
	owner_id VARCHAR(32), 
	status VARCHAR(16) NOT NULL, 
	settings JSON NOT NULL, 
	seats JSON NOT NULL, 
	match_id INTEGER, 
	created_at DATETIME NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (code)
);

CREATE TABLE matches (
	id INTEGER NOT NULL, 
	room_code VARCHAR(8) NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	rules JSON NOT NULL, 
	seed VARCHAR(128) NOT NULL, 
	max_hands INTEGER, 
	seats JSON NOT NULL, 
	scores JSON NOT NULL, 
	penalties JSON NOT NULL, 
	result JSON, 
	created_at DATETIME NOT NULL, 
	finished_at DATETIME, 
	PRIMARY KEY (id), 
	FOREIGN KEY(room_code) REFERENCES rooms (code)
);

CREATE INDEX ix_matches_room_code ON matches (room_code);

CREATE TABLE actions (
	id INTEGER NOT NULL, 
	match_id INTEGER NOT NULL, 
	n INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	action JSON NOT NULL, 
	source VARCHAR(16) NOT NULL, 
	player_id VARCHAR(32), 
	client_seq INTEGER, 
	version INTEGER NOT NULL, 
	created_at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (match_id, n), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);

CREATE INDEX ix_actions_match_id ON actions (match_id);

CREATE TABLE events (
	id INTEGER NOT NULL, 
	match_id INTEGER NOT NULL, 
	n INTEGER NOT NULL, 
	hand INTEGER NOT NULL, 
	kind VARCHAR(32) NOT NULL, 
	data JSON NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (match_id, n), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);

CREATE INDEX ix_events_match_id ON events (match_id);

CREATE TABLE hands (
	id INTEGER NOT NULL, 
	match_id INTEGER NOT NULL, 
	number INTEGER NOT NULL, 
	dealer INTEGER, 
	commitment VARCHAR(128), 
	seed VARCHAR(128), 
	result JSON, 
	started_at DATETIME NOT NULL, 
	ended_at DATETIME, 
	PRIMARY KEY (id), 
	UNIQUE (match_id, number), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);

CREATE INDEX ix_hands_match_id ON hands (match_id);

CREATE TABLE scores (
	id INTEGER NOT NULL, 
	match_id INTEGER NOT NULL, 
	hand INTEGER NOT NULL, 
	seat INTEGER NOT NULL, 
	player_id VARCHAR(32), 
	kind VARCHAR(16) NOT NULL, 
	delta JSON NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (match_id, hand, seat, kind), 
	FOREIGN KEY(match_id) REFERENCES matches (id)
);

CREATE INDEX ix_scores_match_id ON scores (match_id);
