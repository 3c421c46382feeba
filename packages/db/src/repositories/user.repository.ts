import { eq, sql } from 'drizzle-orm';
import type { Database } from '../connection';
import { users } from '../schema';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;

export class UserRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
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
}
