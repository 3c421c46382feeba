import { describe, expect, it } from 'vitest';
import { toUser } from './get-user';

describe('toUser', () => {
  it('keeps every profile field of GET /api/auth/user/', () => {
    const user = toUser({
      id: 'u1',
      email: 'li@example.edu',
      username: 'li',
      name: 'li',
      research_description: 'desc',
      research_name: '李雷',
      research_email: 'li@example.edu',
      research_institution: '某大学',
      research_position: '教授',
      research_fields: 'chemistry,materials-science',
      research_summary_en: 'Catalysis.',
    });
    expect(user).toMatchObject({
      id: 'u1',
      research_fields: 'chemistry,materials-science',
      research_summary_en: 'Catalysis.',
    });
  });

  it('fills missing fields with empty strings and derives the name from the email', () => {
    const user = toUser({ id: 7, email: 'han@example.edu', research_summary_en: null });
    expect(user.id).toBe('7');
    expect(user.name).toBe('han');
    expect(user.research_summary_en).toBe('');
    expect(user.research_fields).toBe('');
  });

  it.each([null, 'text', [], {}, { id: 'u1' }, { email: 'a@b.c' }])('rejects %j', (raw) => {
    expect(() => toUser(raw)).toThrow(TypeError);
  });
});
