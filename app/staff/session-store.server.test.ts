import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffSessions } from "~/db/schema";
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from "../../tests/support/test-database";
import { createStaffAccount } from "./accounts.server";
import {
  createStaffSession,
  findActiveStaffSession,
  revokeAllStaffSessions,
  revokeStaffSession,
  SESSION_IDLE_MS,
  sessionIdFor,
  setStaffSessionFlash,
  touchStaffSession,
} from "./session-store.server";

describe.each(testDatabaseKinds())("staff sessions recorded on %s", (kind) => {
  let database: TestDatabase;
  let staffId: string;
  let now = Date.parse("2026-11-23T08:00:00Z");

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    staffId = (await createStaffAccount(database.db, { email: "keeper@example.com", password: "Session-Store-Pass-1", role: "staff" })).id;
  });
  afterAll(async () => {
    await database.dispose();
  });
  /** The runtime's clock, as the guard reads it: the test moves `now`. */
  const at = () => new Date(now);

  it("stores the token's hash, never the token, and finds the session by the token only", async () => {
    const { token, csrf } = await createStaffSession(database.db, staffId, at());
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await database.db.select().from(staffSessions);
    expect(rows.map((row) => row.id)).toContain(sessionIdFor(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(await findActiveStaffSession(database.db, token, at())).toMatchObject({
      staff: { id: staffId, email: "keeper@example.com" },
      csrf,
    });
    expect(await findActiveStaffSession(database.db, sessionIdFor(token), at())).toBeNull();
    expect(await findActiveStaffSession(database.db, "not a token", at())).toBeNull();
  });

  it("expires after 12 idle hours, and each touch renews it; a flash is shown once", async () => {
    const { token } = await createStaffSession(database.db, staffId, at());
    const session = (await findActiveStaffSession(database.db, token, at()))!;
    await setStaffSessionFlash(database.db, session.id, { kind: "success", message: "Done." });
    now += SESSION_IDLE_MS - 1000;
    expect((await findActiveStaffSession(database.db, token, at()))?.flash).toEqual({ kind: "success", message: "Done." });
    await touchStaffSession(database.db, session.id, at());
    now += SESSION_IDLE_MS - 1000;
    expect((await findActiveStaffSession(database.db, token, at()))?.flash).toBeNull();
    now += 2000;
    expect(await findActiveStaffSession(database.db, token, at())).toBeNull();
  });

  it("revokes one session, or every session of the account at once", async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => createStaffSession(database.db, staffId, at())));
    await revokeStaffSession(database.db, sessionIdFor(a.token));
    expect(await findActiveStaffSession(database.db, a.token, at())).toBeNull();
    expect(await findActiveStaffSession(database.db, b.token, at())).not.toBeNull();
    expect(await revokeAllStaffSessions(database.db, staffId)).toBeGreaterThanOrEqual(2);
    for (const { token } of [b, c]) expect(await findActiveStaffSession(database.db, token, at())).toBeNull();
  });
});
