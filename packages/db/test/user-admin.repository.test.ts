import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertWindowRules, KeywordRepository, UserAdminRepository, UserRepository } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/**
 * UserAdminRepository (`radar users ...`) on the database of the run: finding a user by id or
 * address, disabling (migration 0006) and what a disabled account is left out of. Deleting a person
 * with their data is tested through the command (packages/cli/test/users-cli.test.ts).
 */

let database: TestDatabase;
let admin: UserAdminRepository;
let users: UserRepository;

const RULES: AlertWindowRules = {
  dueSlackMinutes: 5,
  firstLookbackDays: 7,
  maxLookbackDays: 14,
  overlapMinutes: 10,
  maxPapers: 20,
};

beforeAll(async () => {
  database = await createTestDatabase();
  admin = new UserAdminRepository(database.db);
  users = new UserRepository(database.db);
});

afterAll(async () => {
  await database?.close();
});

describe('UserAdminRepository', () => {
  it('finds a user by id or by address in any case, and nobody for an unknown one', async () => {
    const user = await users.create({ email: 'Mixed.Case@Example.org' });
    expect((await admin.find('mixed.case@example.ORG'))?.id).toBe(user.id);
    expect((await admin.find(user.id.toUpperCase()))?.email).toBe('Mixed.Case@Example.org');
    expect(await admin.find('nobody@example.org')).toBeUndefined();
    expect(await admin.find('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('disables keeping the first time, enables, and answers undefined for a missing user', async () => {
    const user = await users.create({ email: 'disable-twice@example.org' });
    const first = await admin.disable(user.id);
    expect(first?.disabledAt).toBeInstanceOf(Date);
    expect((await admin.disable(user.id))?.disabledAt).toEqual(first?.disabledAt);
    expect((await admin.list()).find((row) => row.id === user.id)?.disabledAt).toEqual(first?.disabledAt);
    expect((await admin.enable(user.id))?.disabledAt).toBeNull();
    expect(await admin.disable('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('leaves a disabled account out of keyword alert mail until it is enabled', async () => {
    const keywords = new KeywordRepository(database.db);
    const user = await users.create({ email: 'alerted@example.org', isEmailVerified: true, passwordHash: 'x' });
    const created = await keywords.create(user.id, 'graphene', 10);
    if (!('created' in created)) throw new Error('keyword not created');
    await keywords.updateOwned(created.created.id, user.id, { alertEnabled: true });
    expect(await keywords.listUsersDueForAlerts(RULES, 100)).toContain(user.id);
    await admin.disable(user.id);
    expect(await keywords.listUsersDueForAlerts(RULES, 100)).not.toContain(user.id);
    expect(await keywords.claimAlertDigests([{ userId: user.id }], RULES)).toEqual([]);
    await admin.enable(user.id);
    expect(await keywords.listUsersDueForAlerts(RULES, 100)).toContain(user.id);
  });
});
