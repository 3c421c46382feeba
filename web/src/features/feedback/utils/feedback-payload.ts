import { isApiError } from '@/lib/api-client';
import { FEEDBACK_STRINGS } from '../strings';

/** The feedback's time is given in China Standard Time, whatever the browser's zone. */
const FEEDBACK_TIME_ZONE = 'Asia/Shanghai';

const SHANGHAI_PARTS = new Intl.DateTimeFormat('en-US', {
  timeZone: FEEDBACK_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai, e.g. 2026-11-23 20:05:09 for 12:05:09 UTC. */
export function formatShanghaiTimestamp(date: Date): string {
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    SHANGHAI_PARTS.formatToParts(date).find((item) => item.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

export type FeedbackUserInfo = {
  email: string;
  userId: string;
  userAgent: string;
  currentPage: string;
  timestamp: string;
};

/** The user-info box attached to every feedback: who sent it, from which page and browser. */
export function buildFeedbackUserInfo(input: {
  account: { email: string; id: string } | null;
  userAgent: string;
  currentPage: string;
  now: Date;
}): FeedbackUserInfo {
  return {
    email: input.account?.email || FEEDBACK_STRINGS.userInfo.notLoggedIn,
    userId: input.account?.id || FEEDBACK_STRINGS.userInfo.unknownUser,
    userAgent: input.userAgent,
    currentPage: input.currentPage,
    timestamp: formatShanghaiTimestamp(input.now),
  };
}

/**
 * No answer at all (network, time-out) is a network error; a 429 says to wait (and how long, as the API
 * client words it); any other failure is a send failure.
 */
export function describeFeedbackError(error: unknown): string {
  if (isApiError(error) && error.status === 429) return error.message;
  return isApiError(error) && error.status === null && error.code !== 'ABORTED'
    ? FEEDBACK_STRINGS.errors.network
    : FEEDBACK_STRINGS.errors.failed;
}
