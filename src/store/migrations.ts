/** The schema, one migration per version; `PRAGMA user_version` says which ran. Never edit one that shipped. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE jobs (
     id TEXT PRIMARY KEY,
     key TEXT NOT NULL,
     kind TEXT NOT NULL,
     repo TEXT NOT NULL,
     sha TEXT,
     fingerprint TEXT,
     trigger TEXT,
     state TEXT NOT NULL,
     outcome TEXT,
     summary TEXT,
     pr_url TEXT,
     cost_usd REAL NOT NULL DEFAULT 0,
     turns INTEGER NOT NULL DEFAULT 0,
     attempts INTEGER NOT NULL DEFAULT 0,
     queued_at INTEGER,
     started_at INTEGER,
     finished_at INTEGER,
     trace_path TEXT,
     trace_text TEXT,
     error TEXT
   );
   CREATE INDEX jobs_by_time ON jobs(queued_at DESC);
   CREATE TABLE spend (
     repo TEXT NOT NULL,
     month TEXT NOT NULL,
     usd REAL NOT NULL DEFAULT 0,
     PRIMARY KEY (repo, month)
   );
   CREATE TABLE suspended (
     job_id TEXT PRIMARY KEY,
     question_id TEXT NOT NULL,
     deadline INTEGER NOT NULL,
     state TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );`,
  // v2: what a person reads of a result (the PR text, or the diagnosis and its checks).
  `ALTER TABLE jobs ADD COLUMN detail TEXT;`,
  // v3: the job as queued (to run it again after a restart) and what happened to it on the way.
  `ALTER TABLE jobs ADD COLUMN spec TEXT;
   ALTER TABLE jobs ADD COLUMN note TEXT;
   ALTER TABLE jobs ADD COLUMN interruptions INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX jobs_unfinished ON jobs(state) WHERE state IN ('queued', 'running');`,
];
