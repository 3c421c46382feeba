import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { emailVerificationCodes, passwordResetTokens, users } from '../schema';
import { USER_CHANGES_CHANNEL } from '../user-change-listener';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

/** Sends the id of every updated or deleted user on USER_CHANGES_CHANNEL, at commit (user-change-listener.ts). */
const NOTIFY_FUNCTION_BODY = `
BEGIN
  PERFORM pg_notify('${USER_CHANGES_CHANNEL}', OLD.id::text);
  RETURN NULL;
END;
`;

/**
 * Sends the user id of a session that was revoked or deleted on the same channel: the auth guard caches
 * a user's sessions with the user's row, so the same invalidation drops both. `last_seen_at` updates
 * (no change of `revoked_at`) notify nobody: they happen every few minutes per session.
 */
const NOTIFY_SESSION_FUNCTION_BODY = `
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.revoked_at IS NOT DISTINCT FROM OLD.revoked_at THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('${USER_CHANGES_CHANNEL}', OLD.user_id::text);
  RETURN NULL;
END;
`;

/** The triggers behind UserChangeListener: each table's trigger and the function it runs. */
const NOTIFY_TRIGGERS = [
  { table: 'users', trigger: 'users_notify_changed', fn: 'notify_user_changed', body: NOTIFY_FUNCTION_BODY },
  {
    table: 'sessions',
    trigger: 'sessions_notify_changed',
    fn: 'notify_session_changed',
    body: NOTIFY_SESSION_FUNCTION_BODY,
  },
];

export class UserRepository {
  constructor(private readonly db: Database) {}

  /**
   * Installs the triggers behind UserChangeListener (on radar.users and radar.sessions), idempotently:
   * a trigger rather than a NOTIFY in each write, so every write to radar.users notifies, whichever repository, process or operator made
   * it. Run at server start (a runtime check, like the per-model vector indexes, rather than a
   * migration). Processes starting together serialise on an advisory lock; when the function and
   * trigger are already in place nothing is locked or replaced.
   */
  async ensureChangeNotifications(): Promise<void> {
    // Each trigger in place, on its table, running its function with today's body.
    const installed = sql.join(
      NOTIFY_TRIGGERS.map(
        ({ table, trigger, fn, body }) => sql`EXISTS (
          SELECT 1 FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE t.tgrelid = ${sql.raw(`'radar.${table}'`)}::regclass AND t.tgname = ${sql.raw(`'${trigger}'`)}
            AND p.oid = to_regprocedure(${sql.raw(`'radar.${fn}()'`)}) AND p.prosrc = ${body}
        )`,
      ),
      sql` AND `,
    );
    const isInstalled = async (db: Pick<Database, 'execute'>) => {
      const { rows } = await db.execute<{ installed: boolean }>(sql`SELECT ${installed} AS installed`);
      return rows[0]?.installed === true;
    };
    if (await isInstalled(this.db)) return;
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('radar.users_notify_changed'))`);
      if (await isInstalled(tx)) return;
      for (const { table, trigger, fn, body } of NOTIFY_TRIGGERS) {
        await tx.execute(
          sql.raw(`CREATE OR REPLACE FUNCTION radar.${fn}() RETURNS trigger LANGUAGE plpgsql
            AS $radar$${body}$radar$`),
        );
        await tx.execute(
          sql.raw(`CREATE OR REPLACE TRIGGER ${trigger} AFTER UPDATE OR DELETE ON radar.${table}
            FOR EACH ROW EXECUTE FUNCTION radar.${fn}()`),
        );
      }
    });
  }

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  /** The users of these ids that exist, in no particular order (a batch job reads its readers at once). */
  async findManyByIds(ids: readonly string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(users)
      .where(inArray(users.id, [...ids]));
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    return row;
  }

  async create(values: NewUserRow): Promise<UserRow> {
    const [row] = await this.db.insert(users).values(values).returning();
    if (!row) throw new Error('insert into users returned no row');
    return row;
  }

  async update(id: string, changes: Partial<Omit<NewUserRow, 'id' | 'createdAt'>>): Promise<UserRow | undefined> {
    const [row] = await this.db.update(users).set(changes).where(eq(users.id, id)).returning();
    return row;
  }

  /**
   * Sets the password only while the account still waits for verification, in one conditional UPDATE:
   * a verification committed a moment earlier wins, and its account's password is never touched.
   * False when the account was verified (or removed) meanwhile.
   */
  async setPasswordWhilePending(id: string, passwordHash: string): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, id), eq(users.isEmailVerified, false)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /**
   * Creates the account, or returns undefined when the address is taken (also when a concurrent
   * registration of the same address won the race).
   */
  async createIfAbsent(values: NewUserRow): Promise<UserRow | undefined> {
    const [row] = await this.db.insert(users).values(values).onConflictDoNothing().returning();
    return row;
  }

  async delete(id: string): Promise<void> {
    await this.db.delete(users).where(eq(users.id, id));
  }

  /**
   * Deletes the account only while its address is unverified (with its codes and tokens), so a
   * registration that frees a stale address can never delete an account verified a moment earlier.
   */
  async deleteUnverified(id: string): Promise<boolean> {
    const rows = await this.db
      .delete(users)
      .where(and(eq(users.id, id), eq(users.isEmailVerified, false)))
      .returning({ id: users.id });
    return rows.length === 1;
  }

  /**
   * Deletes unverified accounts created before `createdBefore`: registrations nobody verified, and the
   * placeholders that hold the per-address state of addresses without an account. One still inside a
   * verification (a code or reset link that is valid at `now`) is kept until that ends. Idempotent.
   */
  async purgeStaleUnverified(createdBefore: Date, now: Date): Promise<number> {
    const rows = await this.db
      .delete(users)
      .where(
        and(
          eq(users.isEmailVerified, false),
          lt(users.createdAt, createdBefore),
          sql`NOT EXISTS (SELECT 1 FROM ${emailVerificationCodes} c
                WHERE c.user_id = ${users.id} AND c.consumed_at IS NULL AND c.expires_at > ${now.toISOString()}::timestamptz)`,
          sql`NOT EXISTS (SELECT 1 FROM ${passwordResetTokens} t
                WHERE t.user_id = ${users.id} AND t.used_at IS NULL AND t.revoked_at IS NULL
                  AND t.expires_at > ${now.toISOString()}::timestamptz)`,
        ),
      )
      .returning({ id: users.id });
    return rows.length;
  }
}
