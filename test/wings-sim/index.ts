/**
 * Wings SIMULATOR for Hatchery's e2e tests and local demos. It is NOT Pterodactyl Wings: no Docker, no
 * SFTP, no real game processes. It speaks the daemon protocol of docs/wings.md on loopback.
 *
 * Covered:
 * - the traps: Bearer node token only (a `<tokenId>.<token>` header is a 403), HS256 JWTs keyed with the node
 *   token, integer date claims (fractional → rejected), `iat` ≥ boot time, Origin check, one-time `unique_id`s,
 *   UUID v4 check and the synchronous panel fetch on create.
 * - middleware: X-Request-Id, CORS, OPTIONS 204, 401/403/404 bodies, gin BindJSON 400s, error classes.
 * - servers, power (202 + background), commands (502 when stopped), logs, sync, install, reinstall
 *   (409 while the power lock is held), ws/deny, /api/update (`{"applied":true}`, stored in lastConfigUpdate),
 *   /api/system (v1 and ?v=2).
 * - files on a real directory per server: contents, list-directory, rename, copy (`a copy.jar`,
 *   `a copy 1.jar` … `a copy 50.jar`, `.tar.gz` kept whole), write, create-directory, delete, compress,
 *   decompress (tar, tar.gz, zip, single .gz), chmod, pull (background/foreground, progress, cancel), egg denylist.
 * - signed URLs: /download/file, /download/backup, /upload/file (multipart `files`).
 * - backups with the local ("wings") adapter: create + `POST /api/remote/backups/{uuid}`, delete,
 *   restore (local, and S3 via download_url) + `/restore` callback and websocket messages.
 * - websocket: auth, jwt error texts, token expiring/expired, send command/logs/stats, set state, permission
 *   filters for install output / backup completed, close 1001 "server deleted".
 * - callbacks through one PanelClient (timeout, optional retry budget, Wings' headers and `null` bodies).
 * - the install flow and the power state machine, with crash detection (see `crash()`).
 * - transfers (docs/wings.md#transfers): as a source `POST|DELETE /api/servers/:server/transfer` (409 when one
 *   runs / none runs; the server is stopped; the archive and its sha256 streamed as multipart `archive` then
 *   `checksum` to the given URL with the given Authorization verbatim; `transfer/failure` on error; `transfer
 *   status` / `transfer logs` events); as a target `POST /api/transfers` (JWT HS256 with its own token, exp and
 *   a uuid `sub`; bad header 401, bad JWT 500), the server built from `GET /api/remote/servers/{uuid}`, archive
 *   checked and extracted, `transfer/success` or `/failure`. Faults: transferSourceFails,
 *   transferSourceDiesMidStream, transferTargetFails, transferTargetSilent.
 *
 * Deliberate simplifications:
 * - Boot time defaults to start() rounded DOWN to the whole second (Wings compares with sub-second precision),
 *   so a token issued in the same second as boot is accepted; pass `bootTime` to change it.
 * - jsonwebtoken requires the JWT header to say HS256; Wings verifies HS256 whatever the header says.
 * - `startup.done` regex patterns: the simulated process cannot invent a matching line, it goes `running` itself.
 * - Config files (`process_configuration.configs`) are not rewritten; no console throttling; mime sniffing is a
 *   small stand-in for gabriel-vasile/mimetype; stats numbers are random but plausible.
 * - Pull accepts loopback URLs (Wings refuses private/loopback targets) so tests can serve files locally.
 * - S3 backups read each part into memory before the PUT (Wings streams it). A transfer's archive is written to a temporary file before it is
 *   streamed (Wings streams while it archives); the target spools it before extracting. Boot-time `GET /api/remote/servers` and
 *   `POST /servers/reset` are not sent (the panel need not be up when the simulator starts).
 * - Retries of failed panel calls: Wings backs off for ~30 s; here `remoteRetryBudgetMs` (default 0).
 * - Create-directory through a file is 400 (the handler's intent); that is what we answer.
 */
export { WingsSimulator } from 'test/wings-sim/simulator';
export * from 'test/wings-sim/types';
