/** Texts of the "login and security" section of /my: password change and the active sessions. */
export const SECURITY_STRINGS = {
  title: '登录与安全',
  description: '修改密码，查看在哪些设备上登录了账号，并可让其他设备退出登录。',

  password: {
    title: '修改密码',
    current: '当前密码',
    next: '新密码',
    confirm: '确认新密码',
    hint: '修改后，其他设备上的登录会全部退出，本设备保持登录。我们会发邮件通知你。',
    submit: '修改密码',
    submitting: '正在修改…',
    commonPassword: '密码过于简单，请使用更复杂的密码',
    show: '显示密码',
    hide: '隐藏密码',
  },

  sessions: {
    title: '登录设备',
    loading: '正在读取登录设备…',
    thisDevice: '本设备',
    lastSeen: (when: string) => `最近活动：${when}`,
    created: (when: string) => `登录于 ${when}`,
    endOne: '退出',
    endOneLabel: (device: string) => `让 ${device} 退出登录`,
    endOthers: '退出其他设备',
    noOthers: '没有其他设备登录此账号。',
    confirmEndOthers: '其他设备上的登录将全部退出，需要重新输入密码才能登录。确定吗？',
    confirm: '确定退出',
    cancel: '取消',
  },
} as const;
