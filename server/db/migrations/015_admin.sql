-- Admin surfaces (issue 20).
-- Run-as user profiles keep an optional secret (the account's password, for actors that must log the
-- user on), encrypted with AES-256-GCM under a key from the director's environment (VIGIL_SECRET_KEY,
-- else DATA_DIR/secret.key); it is write-only: no call ever answers it.
alter table action_user_profiles add column secret_ciphertext text;
alter table action_user_profiles add column updated_at timestamptz not null default now();

-- An actor edited on /topology/nodes/{id}/edit may be retired: its credential stops working and no
-- job picks it until it is enabled again.
alter table nodes add column retired_at timestamptz;
