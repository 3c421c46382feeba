import { LIMITS } from '@radar/shared';

/** Every text of the feedback page. */
export const FEEDBACK_STRINGS = {
  pageTitle: '意见反馈',
  pageSubtitle: '遇到问题或有好的想法？欢迎告诉我们，我们会认真阅读每一条反馈。',
  type: '反馈类型',
  title: '标题',
  titlePlaceholder: '一句话概括你的反馈',
  titleCounter: (length: number) => `${length}/${LIMITS.feedbackTitleMaxLength}`,
  description: '详细描述',
  descriptionPlaceholder: '请描述问题出现的步骤和期望的结果，或者你的建议与疑问',
  required: '请填写标题和详细描述',
  cancel: '取消',
  submit: '提交反馈',

  userInfo: {
    title: '以下信息将随反馈自动提交，便于我们定位问题',
    email: '用户邮箱',
    userId: '用户编号',
    userAgent: '浏览器信息',
    currentPage: '当前页面',
    timestamp: '提交时间',
    /** The e-mail, or a 'not logged in' text. */
    notLoggedIn: '未登录',
    /** The user id, or 'unknown'. */
    unknownUser: 'unknown',
  },

  thanks: {
    // The app says 你 throughout; the API's own thanks message (FEEDBACK_THANKS) still says 您.
    title: '感谢你的反馈',
    body: '我们已收到你的反馈，会尽快查看和处理。',
    home: '返回首页',
    again: '继续反馈',
  },

  errors: {
    failed: '发送反馈失败，请稍后重试',
    network: '网络错误，请检查网络连接后重试',
  },
} as const;
