/**
 * Failures of an AI provider, classified once so callers can decide: retry the job later
 * (`isTransient`), or fail the user's task now with `userMessage` (shown as is in the Chinese UI).
 */

export type AiFailureKind =
  /** The provider did not answer in time. */
  | 'timeout'
  /** 408, 409, 429 or 5xx after the SDK's retries, or the connection failed: try again later. */
  | 'unavailable'
  /** Any other 4xx: wrong key, model, or request; retrying cannot help. */
  | 'rejected'
  /** The answer was not what was asked for (malformed JSON, wrong shape), also after one retry. */
  | 'invalid-output'
  /** The caller aborted (shutdown, request time-out). */
  | 'aborted';

const USER_MESSAGES: Record<AiFailureKind, string> = {
  timeout: 'AI 服务响应超时，请稍后重试',
  unavailable: 'AI 服务暂时不可用，请稍后重试',
  rejected: 'AI 服务拒绝了请求，请联系管理员检查 AI 模型配置',
  'invalid-output': 'AI 返回的结果格式不正确，请重试',
  aborted: '研究方向处理已中止，请重试',
};

export class AiProviderError extends Error {
  override name = 'AiProviderError';
  readonly userMessage: string;

  constructor(
    readonly kind: AiFailureKind,
    /** For logs: what failed, with the provider's own words. Never shown to users. */
    detail: string,
    readonly status?: number,
  ) {
    super(detail);
    this.userMessage = USER_MESSAGES[kind];
  }

  /** Worth another attempt later (job backoff): time-outs and unavailability. */
  get isTransient(): boolean {
    return this.kind === 'timeout' || this.kind === 'unavailable' || this.kind === 'aborted';
  }
}

export const isAiProviderError = (error: unknown): error is AiProviderError => error instanceof AiProviderError;
