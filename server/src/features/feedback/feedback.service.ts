import type { FeedbackRepository, FeedbackRow, UserRow } from '@radar/db';
import type { Mailer } from '@radar/mail';
import {
  CONTACT_FEEDBACK_TYPE,
  CONTACT_STORED,
  CONTACT_THANKS,
  type ContactRequest,
  type ContactResponse,
  FEEDBACK_THANKS,
  FEEDBACK_TYPE_LABELS,
  type FeedbackRequest,
  type FeedbackResponse,
} from '@radar/shared';
import type { Logger } from 'pino';
import type { AfterAnswer } from '../../mail/after-answer';
import { type ContactUserInfo, contactMail, type FeedbackUserInfo, feedbackMail } from './feedback.mail';

export interface FeedbackServiceDeps {
  feedback: FeedbackRepository;
  mailer: Mailer;
  /** FEEDBACK_TO; unset: feedback is only stored. */
  feedbackTo: string | undefined;
  /** SUPPORT_EMAIL: where contact messages go when FEEDBACK_TO is unset. */
  supportEmail?: string | undefined;
  logger: Logger;
  /** Mail sent after the answer, waited for at shutdown. */
  afterAnswer: AfterAnswer;
  now?: (() => Date) | undefined;
}

/**
 * Stores feedback, then mails it to FEEDBACK_TO. The row is written before any mail is tried, so a mail
 * server that is down or refuses loses nothing (`mailed_at` stays null); the mail goes out after the
 * answer, so a slow mail server never makes the page time out and send the feedback twice.
 */
export class FeedbackService {
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
      this.inBackground(row, () => this.deps.mailer.send(feedbackMail(to, row, account, userInfo)));
    }
    return { success: true, message: FEEDBACK_THANKS, id: String(row.id) };
  }

  /**
   * A message from the contact form, without an account: stored as feedback of type 联系表单 (user_info
   * says `source: contact` and holds the reply address), then mailed to FEEDBACK_TO, or to the published
   * SUPPORT_EMAIL when only that is set. With neither, it is only stored, and the answer says so rather
   * than promise a reply nobody was told to write (operators read it with `pnpm radar messages`). A
   * filled-in honeypot field gets the answer a person would and is dropped.
   */
  async contact(request: ContactRequest, client: { userAgent: string | undefined }): Promise<ContactResponse> {
    const to = this.deps.feedbackTo ?? this.deps.supportEmail;
    const answer: ContactResponse = to
      ? { success: true, message: CONTACT_THANKS, delivery: 'mail' }
      : { success: true, message: CONTACT_STORED, delivery: 'stored' };
    if (request.website?.trim()) {
      this.deps.logger.info('contact message with the hidden field filled in: dropped as a bot');
      return answer;
    }
    const info: ContactUserInfo = {
      source: 'contact',
      name: request.name || null,
      email: request.email,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
    };
    const row = await this.deps.feedback.insert({
      userId: null,
      type: CONTACT_FEEDBACK_TYPE,
      title: request.title,
      description: request.description,
      userInfo: info,
    });
    if (to) this.inBackground(row, () => this.deps.mailer.send(contactMail(to, row, info)));
    else
      this.deps.logger.info(
        { feedbackId: row.id },
        'contact message stored; no FEEDBACK_TO or SUPPORT_EMAIL to mail (read it with `pnpm radar messages`)',
      );
    return answer;
  }

  /** Mails after the answer (waited for at shutdown); the row is marked mailed once the mail server took it. */
  private inBackground(row: FeedbackRow, send: () => Promise<unknown>): void {
    this.deps.afterAnswer.run(() => this.mail(row, send));
  }

  private async mail(row: FeedbackRow, send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
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
