import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind, type TestDatabase } from '../../test-support/database.js';
import { createUsersRepository, usersByIds } from './users.repository.js';

/** The one lookup of users by id that notes and merge requests share. */
describe(`usersByIds (${testDatabaseKind()})`, () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db?.close());

  const newUser = (username: string) =>
    createUsersRepository(db).insert({ username, name: username, email: `${username}@example.com`, passwordHash: null, isAdmin: false });

  it('maps each found id to its user, skipping nulls, repeats and unknown ids', async () => {
    const [ada, bob] = [await newUser('ids-ada'), await newUser('ids-bob')];
    const found = await usersByIds(db, [ada.id, null, ada.id, bob.id + 1000, bob.id]);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual([ada.id, bob.id]);
    expect(found.get(ada.id)).toEqual(ada);
    expect(found.get(bob.id)?.username).toBe('ids-bob');
  });

  it('asks nothing for no ids', async () => {
    expect(await usersByIds({ query: () => Promise.reject(new Error('no query expected')) }, [null])).toEqual(new Map());
  });
});
