import { sql, UserRepository } from '@radar/db';
import { type OwnWorksServer, RECORDED_ORCID_ID, startOwnWorksServer } from '@radar/ingest/testing/own-works';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eEnvironment, expectCleanPage, SCREENSHOT_VIEWPORTS, startE2e } from '../src';

/**
 * From an ORCID iD typed on /my to a seeded profile: the research dialog's ORCID option, ORCID's public
 * API played by a local server answering a recorded real record (ORCID_BASE_URL), the works stored as
 * the reader's liked papers, and the drafted English summary confirmed and saved.
 */

let e2e: E2eEnvironment;
let orcid: OwnWorksServer;

beforeAll(async () => {
  orcid = await startOwnWorksServer();
  e2e = await startE2e({ env: { ORCID_BASE_URL: orcid.origin, CROSSREF_BASE_URL: orcid.origin } });
});

afterAll(async () => {
  await e2e?.close();
  await orcid?.close();
});

/** The papers marked as the reader's own works. */
const authoredIds = async (userId: string) => {
  const result = await e2e.server.database.db.execute<{ paper_id: string }>(
    sql`SELECT paper_id FROM radar.user_article_states WHERE user_id = ${userId}::uuid AND authored_at IS NOT NULL`,
  );
  return result.rows.map((row) => Number(row.paper_id));
};

describe('profile from one’s own works', () => {
  it('an ORCID iD on /my: works fetched and liked, the drafted summary confirmed and shown', async () => {
    const email = 'orcid-reader@example.org';
    const { user, token } = await e2e.server.createSignedInUser(email);
    const opened = await e2e.openPage({
      viewport: SCREENSHOT_VIEWPORTS.wide,
      localStorage: { token, userEmail: email },
    });
    const { page } = opened;
    await page.goto('/my');
    await page.getByTestId('research-guide-complete').click();

    await page.getByTestId('research-dialog-source-authorId').click();
    const idInput = page.getByTestId('own-works-author-id');
    // A typo in the check digit is refused by the server with its message.
    await idInput.fill('0000-0002-7416-5857');
    await page.getByTestId('research-dialog-start').click();
    await page.getByTestId('research-dialog-error').getByText('ORCID iD 无效', { exact: false }).waitFor();

    await page.getByTestId('own-works-author-id').fill(`https://orcid.org/${RECORDED_ORCID_ID}`);
    await page.getByTestId('research-dialog-start').click();
    const incomplete = page.getByTestId('research-dialog-incomplete');
    await incomplete.waitFor({ timeout: 45_000 });
    expect(await page.getByTestId('research-dialog-draft-body').textContent()).toContain(
      '已读取 1 篇作品，其中 1 篇已记为你喜欢的论文',
    );
    expect(await page.getByTestId('research-dialog-report-summary').textContent()).toContain('根据作品生成');
    expect(await page.getByTestId('research-dialog-report-name').count()).toBe(0);
    const draft = await page.getByTestId('research-dialog-summary-input').inputValue();
    expect(draft).toMatch(/entanglement|entropy|purification/i);

    const summary = `${draft.trim()} I work on quantum information in holography.`;
    await page.getByTestId('research-dialog-summary-input').fill(summary);
    await page.getByTestId('research-dialog-save-summary').click();
    await page.getByTestId('research-dialog-success').waitFor({ timeout: 20_000 });
    await page.getByTestId('research-dialog-confirm').click();
    await page.getByTestId('research-summary').getByText(summary).waitFor();

    const stored = await new UserRepository(e2e.server.database.db).findById(user.id);
    expect(stored?.researchSummaryEn).toBe(summary);
    expect(await authoredIds(user.id)).toHaveLength(1);
    expect(orcid.requests).toContain(`/v3.0/${RECORDED_ORCID_ID}/works`);
    // The iD with the wrong check digit, refused on purpose above.
    expectCleanPage(opened, ['400 POST /api/auth/research-direction/from-author-id/']);
  });
});
