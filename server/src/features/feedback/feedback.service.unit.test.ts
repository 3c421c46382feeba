import type { FeedbackRepository, FeedbackRow, NewFeedbackRow } from '@radar/db';
import type { Mailer, MailStatus, OutgoingMail } from '@radar/mail';
import { CONTACT_FEEDBACK_TYPE, CONTACT_STORED, CONTACT_THANKS, FEEDBACK_THANKS } from '@radar/shared';
import { beforeEach, describe, expect, it } from 'vitest';
import { capturingLogger, userRow } from '../../../test/unit-support';
import { AfterAnswer } from '../../mail/after-answer';
import { FeedbackService, type FeedbackServiceDeps } from './feedback.service';

/*
 * The order of storing and mailing, and where a message goes, over an in-memory repository and a mailer
 * whose sends the test completes or fails by hand. The real SMTP round trips, the routes' validation and
 * the per-client limits are feedback.test.ts's and contact.test.ts's.
 */

const MAILED_AT = new Date('2026-11-29T08:00:00Z');

class InMemoryFeedback {
  rows: FeedbackRow[] = [];
  async insert(values: NewFeedbackRow): Promise<FeedbackRow> {
    const row: FeedbackRow = {
      id: this.rows.length + 1,
      userId: values.userId ?? null,
      type: values.type,
      title: values.title,
      description: values.description,
      userInfo: values.userInfo ?? {},
      mailedAt: null,
      readAt: null,
      createdAt: new Date('2026-11-29T07:59:00Z'),
    };
    this.rows.push(row);
    return row;
  }
  async markMailed(id: number, at: Date): Promise<void> {
    const row = this.rows.find((candidate) => candidate.id === id);
    if (row) row.mailedAt = at;
  }
}

/** A mail server the test answers: each send waits until the test accepts or refuses it. */
class HeldMailer {
  readonly transport = 'smtp' as const;
  sent: { mail: OutgoingMail; accept(): void; refuse(reason: string): void }[] = [];
  send(mail: OutgoingMail): Promise<{ id: string }> {
    return new Promise((resolve, reject) => {
      this.sent.push({
        mail,
        accept: () => resolve({ id: `<${this.sent.length}@sink>` }),
        refuse: (r) => reject(new Error(r)),
      });
    });
  }
  async check(): Promise<MailStatus> {
    return { transport: 'smtp', ok: true };
  }
  close(): void {}
}

let feedback: InMemoryFeedback;
let mailer: HeldMailer;
let log: ReturnType<typeof capturingLogger>;
let afterAnswer: AfterAnswer;

/** The mails are handed to the mailer after the answer: one turn of the event loop later. */
const afterTheAnswer = () => new Promise((resolve) => setImmediate(resolve));

function service(settings: Partial<Pick<FeedbackServiceDeps, 'feedbackTo' | 'supportEmail'>> = {}): FeedbackService {
  return new FeedbackService({
    // The service calls insert and markMailed only; the real class holds a database handle.
    feedback: feedback satisfies Partial<FeedbackRepository> as unknown as FeedbackRepository,
    mailer: mailer satisfies Mailer,
    feedbackTo: settings.feedbackTo,
    supportEmail: settings.supportEmail,
    logger: log.logger,
    afterAnswer,
    now: () => MAILED_AT,
  });
}

beforeEach(() => {
  feedback = new InMemoryFeedback();
  mailer = new HeldMailer();
  log = capturingLogger();
  afterAnswer = new AfterAnswer(log.logger);
});

describe('FeedbackService.send', () => {
  it('stores the feedback and answers before the mail server has taken the mail; mailed_at follows the mail', async () => {
    const feedbackService = service({ feedbackTo: 'ops@example.org' });
    const reader = userRow();
    const answer = await feedbackService.send(
      { type: 'bug', title: '页面打不开', description: '点击推荐后白屏', userInfo: { currentPage: '/papers' } },
      reader,
    );
    expect(answer).toEqual({ success: true, message: FEEDBACK_THANKS, id: '1' });
    expect(feedback.rows[0]).toMatchObject({ userId: reader.id, type: '错误报告', mailedAt: null });
    await afterTheAnswer();
    await afterTheAnswer();
    expect(mailer.sent.map(({ mail }) => [mail.to, mail.subject])).toEqual([
      ['ops@example.org', '科研雷达用户反馈 #1：错误报告'],
    ]);
    expect(mailer.sent[0]?.mail.text).toContain(`账户：${reader.email}（用户编号 ${reader.id}）`);

    mailer.sent[0]?.accept();
    await afterAnswer.settle();
    expect(feedback.rows[0]?.mailedAt).toEqual(MAILED_AT);
  });

  it('keeps the stored feedback unmailed when the mail server refuses, logging its id and the reason but no content', async () => {
    const feedbackService = service({ feedbackTo: 'ops@example.org' });
    await feedbackService.send(
      { type: 'question', title: '私密标题', description: '私密描述', userInfo: {} },
      undefined,
    );
    await afterTheAnswer();
    mailer.sent[0]?.refuse('550 mailbox unavailable');
    await afterAnswer.settle();
    expect(feedback.rows[0]).toMatchObject({ userId: null, mailedAt: null });
    expect(log.lines.find((line) => line.level === 40)).toMatchObject({
      feedbackId: 1,
      err: '550 mailbox unavailable',
      msg: 'feedback stored but not mailed to FEEDBACK_TO',
    });
    expect(JSON.stringify(log.lines)).not.toMatch(/私密/);
  });

  it('only stores the feedback when FEEDBACK_TO is unset, and keeps only the text members of the user info', async () => {
    const userInfo = { email: 'a@example.org', userAgent: 42 } as unknown as { email: string };
    await service().send({ type: 'suggestion', title: '建议', description: '多一些筛选', userInfo }, undefined);
    await afterTheAnswer();
    expect(mailer.sent).toEqual([]);
    expect(feedback.rows[0]?.userInfo).toEqual({ email: 'a@example.org' });
  });
});

describe('FeedbackService.contact', () => {
  const message = { name: '王老师', email: 'wang@example.edu', title: '合作', description: '想了解部署方式' };

  it('mails to FEEDBACK_TO before SUPPORT_EMAIL, replying to the visitor, with the message stored as 联系表单', async () => {
    const answer = await service({ feedbackTo: 'ops@example.org', supportEmail: 'help@example.org' }).contact(message, {
      userAgent: 'x'.repeat(600),
    });
    expect(answer).toEqual({ success: true, message: CONTACT_THANKS, delivery: 'mail' });
    await afterTheAnswer();
    expect(mailer.sent.map(({ mail }) => [mail.to, mail.replyTo])).toEqual([['ops@example.org', 'wang@example.edu']]);
    expect(feedback.rows[0]).toMatchObject({
      userId: null,
      type: CONTACT_FEEDBACK_TYPE,
      userInfo: { source: 'contact', name: '王老师', email: 'wang@example.edu', userAgent: 'x'.repeat(500) },
    });
  });

  it('mails to SUPPORT_EMAIL when FEEDBACK_TO is unset', async () => {
    await service({ supportEmail: 'help@example.org' }).contact(message, { userAgent: undefined });
    await afterTheAnswer();
    expect(mailer.sent.map(({ mail }) => mail.to)).toEqual(['help@example.org']);
  });

  it('with neither address: stores it, mails nobody, and promises no reply', async () => {
    const answer = await service().contact(message, { userAgent: undefined });
    expect(answer).toEqual({ success: true, message: CONTACT_STORED, delivery: 'stored' });
    await afterTheAnswer();
    expect([feedback.rows.length, mailer.sent.length]).toEqual([1, 0]);
  });

  it('answers a filled-in hidden field as it would a person, and stores and mails nothing', async () => {
    const answer = await service({ feedbackTo: 'ops@example.org' }).contact(
      { ...message, website: 'http://spam.example' },
      { userAgent: undefined },
    );
    expect(answer).toEqual({ success: true, message: CONTACT_THANKS, delivery: 'mail' });
    await afterTheAnswer();
    expect([feedback.rows.length, mailer.sent.length]).toEqual([0, 0]);
  });
});
