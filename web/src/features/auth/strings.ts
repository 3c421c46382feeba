/**
 * Texts of the auth screens. The messages the spec gives in Chinese are
 * copied exactly; its English labels are rendered here as natural Chinese. Validation messages come
 * from the request schemas of @radar/shared (the same texts the server answers with).
 */
import { DEFAULT_ERROR_MESSAGES, LIMITS } from '@radar/shared';
import { formatRetryWait } from '@/lib/countdown';

/** '42 秒后可重新发送', '4:05 后可重新发送' (a space after digits), '约 55 分钟后可重新发送'. */
function retryAfter(seconds: number): string {
  const wait = formatRetryWait(seconds);
  return `${wait}${/\d$/.test(wait) ? ' ' : ''}后可重新发送`;
}

const CODE_VALID_MINUTES = LIMITS.verificationCodeTtlSeconds / 60;
const LOCK_HOURS = LIMITS.verificationLockSeconds / 3600;

export const AUTH_STRINGS = {
  common: {
    email: '邮箱地址',
    emailPlaceholder: 'name@university.edu.cn',
    password: '密码',
    showPassword: '显示密码',
    hidePassword: '隐藏密码',
    backHome: '返回首页',
    contactSupport: '联系客服',
  },
  login: {
    title: '登录',
    subtitle: '使用注册邮箱登录科研雷达',
    submit: '登录',
    submitting: '登录中…',
    forgotPassword: '忘记密码？',
    noAccount: '还没有账号？',
    register: '注册新账号',
    /** Messages of "Login". */
    failed: '登录失败，请检查邮箱和密码',
    verifyNow: '去验证邮箱',
  },
  register: {
    title: '注册',
    subtitle: '注册后即可获得根据研究方向推荐的论文与学术新闻',
    confirmPassword: '确认密码',
    passwordRules: '至少 8 位，包含小写字母和数字',
    strength: '密码强度',
    strengthLevels: { weak: '弱', medium: '中', strong: '强' },
    passwordsMatch: '两次输入的密码一致',
    passwordsDiffer: '两次输入的密码不一致',
    submit: '注册',
    submitting: '注册中…',
    hasAccount: '已有账号？',
    login: '直接登录',
    alreadyRegisteredTitle: '该邮箱已注册',
    alreadyRegistered: '这个邮箱已经注册过账号，可以直接登录，或换一个邮箱注册。',
    goLogin: '去登录',
    useAnotherEmail: '使用其他邮箱',
    /** The common-password rule; the server checks a longer list with the same message. */
    commonPassword: '密码过于简单，请使用更复杂的密码',
    /** Messages of "Register". */
    emailFormatHint: '请输入正确的邮箱格式，例如：name@university.edu.cn',
    passwordsDifferRetry: '两次输入的密码不一致，请重新输入',
    badResponse: '服务器响应格式错误，请稍后重试',
    timeout: '请求超时，请检查网络连接后重试',
    network: '网络连接失败，请检查网络后重试',
    failed: '注册失败，请稍后重试',
    unknown: '网络错误，请稍后重试',
  },
  forgot: {
    title: '忘记密码',
    subtitle: '输入注册邮箱，我们会发送一封重置密码的邮件',
    submit: '发送重置邮件',
    submitting: '发送中…',
    /** Label of the send button during a rate-limit wait. */
    waitSeconds: (seconds: number) => retryAfter(seconds),
    sentTitle: '重置邮件已发送',
    sentHint: '请查收邮件并点击其中的链接设置新密码。没有收到？请检查垃圾邮件箱。',
    backToLogin: '返回登录',
    needHelp: '无法收到邮件？',
    /** Messages of "Forgot/reset". */
    failed: '发送重置邮件失败，请稍后重试',
  },
  reset: {
    title: '重置密码',
    subtitle: '为你的账号设置一个新密码',
    newPassword: '新密码',
    confirmPassword: '确认新密码',
    submit: '重置密码',
    submitting: '提交中…',
    retry: '重新申请重置邮件',
    /** Messages of "Forgot/reset". */
    invalidLink: DEFAULT_ERROR_MESSAGES.RESET_TOKEN_INVALID,
    failed: '密码重置失败，请稍后重试',
    successTitle: '密码重置成功',
    redirecting: (seconds: number) => `${seconds} 秒后返回首页，请使用新密码登录。`,
    goHomeNow: '立即返回首页',
  },
  verify: {
    title: '验证邮箱',
    subtitle: '输入邮件中的 6 位验证码完成注册',
    registeredTitle: '注册成功！',
    registered: (email: string) => `验证码已发送至 ${email}，请查收邮件并在下方输入验证码。`,
    code: '验证码',
    codePlaceholder: '6 位数字',
    submit: '验证',
    verifying: '正在验证…',
    resend: '重新发送验证码',
    resendWait: (seconds: number) => retryAfter(seconds),
    /** Every address gets the same answer (an unknown or verified one is not told apart), so it is conditional. */
    resent: '如果该邮箱已注册且尚未验证，验证码已发送，请查收邮件',
    /** After a resend the page cannot know a code went out (see `resent`). */
    codeValidFor: '如已发送，验证码有效期',
    /** Shown instead of m:ss when the countdown reaches 0. */
    expired: '已过期',
    attemptsLeft: (count: number) => `剩余尝试次数：${count}`,
    successTitle: '验证成功',
    successRedirect: '已为你自动登录，2 秒后进入“我的”页面…',
    goNow: '立即前往',
    errorTitle: '验证失败',
    retry: '重新验证',
    helpTitle: '收不到验证码？',
    help: [
      '请检查垃圾邮件或广告邮件箱。',
      `验证码 ${CODE_VALID_MINUTES} 分钟内有效，每个验证码最多可尝试 ${LIMITS.verificationMaxAttempts} 次；次数用完后需等待 ${LOCK_HOURS} 小时或重新发送。`,
      `每 ${LIMITS.verificationResendCooldownSeconds} 秒可以重新发送一次验证码。`,
    ],
    helpContact: '仍有问题？联系客服',
    /** Messages of "Verify". */
    codeExpired: DEFAULT_ERROR_MESSAGES.VERIFICATION_CODE_EXPIRED,
    noCode: DEFAULT_ERROR_MESSAGES.VERIFICATION_CODE_MISSING,
    failed: '验证失败',
    locked: DEFAULT_ERROR_MESSAGES.VERIFICATION_LOCKED,
    network: '网络错误，请稍后重试',
    resendFailed: '发送失败',
    enterEmailFirst: '请先输入邮箱地址',
  },
} as const;
