import type { FeedbackRepository, FeedbackRow, UserRow } from '@radar/db';
import type { Mailer } from '@radar/mail';
import { FEEDBACK_THANKS, FEEDBACK_TYPE_LABELS, type FeedbackRequest, type FeedbackResponse } from '@radar/shared';
import type { Logger } from 'pino';
import { type FeedbackUserInfo, feedbackMail } from './feedback.mail';

export interface FeedbackServiceDeps {
  feedback: FeedbackRepository;
  mailer: Mailer;
  /** FEEDBACK_TO; unset: feedback is only stored. */
  feedbackTo: string | undefined;
  logger: Logger;
  now?: (() => Date) | undefined;
}

/**
 * Stores feedback, then mails it to FEEDBACK_TO. The row is written before any mail is tried, so a mail
 * server that is down or refuses loses nothing (`mailed_at` stays null); the mail goes out after the
 * answer, so a slow mail server never makes the page time out and send the feedback twice.
 */
export class FeedbackService {
  private readonly sending = new Set<Promise<void>>();
  private readonly now: () => Date;

  constructor(private readonly deps: FeedbackServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** `user` is the signed-in account, undefined for anonymous feedback. */
  async send(request: FeedbackRequest, user: UserRow | undefined): Promise<FeedbackResponse> {
    const userInfo: FeedbackUserInfo = Object.fromEntries(
      Object.entries(request.userInfo ?? {}).filter(([, value]) => typeof value === 'string'),
    );
    const row = await this.deps.feedback.insert({
      userId: user?.id ?? null,
      type: FEEDBACK_TYPE_LABELS[request.type],
      title: request.title,
      description: request.description,
      userInfo,
    });
    const to = this.deps.feedbackTo;
    if (to) {
      const account = user && { id: user.id, email: user.email };
      const mailing = this.mail(to, row, account, userInfo).finally(() => this.sending.delete(mailing));
      this.sending.add(mailing);
    }
    return { success: true, message: FEEDBACK_THANKS, id: String(row.id) };
  }

  /** Waits for the mails still going out; the app awaits it when it closes, before the mailer closes. */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }

  private async mail(
    to: string,
    row: FeedbackRow,
    account: { id: string; email: string } | undefined,
    userInfo: FeedbackUserInfo,
  ): Promise<void> {
    try {
      await this.deps.mailer.send(feedbackMail(to, row, account, userInfo));
      await this.deps.feedback.markMailed(row.id, this.now());
    } catch (error) {
      // The feedback is stored; only the id and the reason are logged, never what the user wrote.
      this.deps.logger.warn(
        { feedbackId: row.id, err: (error as Error).message },
        'feedback stored but not mailed to FEEDBACK_TO',
      );
    }
  }
}
