/** Texts of the "推送与订阅" section of /my: the digest schedule, the Atom feed and the group robot. */
export const DELIVERY_STRINGS = {
  title: '推送与订阅',
  description: '把为你推荐的新论文和资讯、你关注的作者的新论文按时送到邮箱、订阅阅读器或工作群，每条只推送一次。',
  loading: '正在读取推送设置…',
  saved: '推送设置已保存',
  commonTimeZones: [
    'Asia/Shanghai',
    'Asia/Hong_Kong',
    'Asia/Tokyo',
    'Europe/London',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'UTC',
  ],

  schedule: {
    title: '推送时间',
    frequency: '频率',
    frequencies: { off: '关闭', daily: '每天', weekly: '每周' },
    weekday: '星期',
    weekdays: ['周一', '周二', '周三', '周四', '周五', '周六', '周日'],
    hour: '时间',
    timeZone: '时区',
    email: (email: string) => `发送推荐邮件到 ${email}`,
    note: '推送按你在论文推荐和资讯推荐页面的设置（相似度阈值、分区、时间范围）挑选，保存时会采用本浏览器里的这些设置；已推送过的条目不会重复推送。',
    next: (when: string) => `下次推送：${when}`,
    save: '保存推送设置',
  },

  feed: {
    title: '个人订阅地址（Atom）',
    description:
      '在 RSS/Atom 阅读器或 Zotero 中订阅这个地址即可看到为你推荐的内容，无需登录。请勿分享：任何拿到地址的人都能看到你的推荐。',
    urlLabel: '订阅地址',
    copy: '复制',
    copied: '订阅地址已复制',
    copyByHand: '浏览器不允许自动复制，请手动选中地址复制',
    exists: '订阅地址已生成。出于安全，完整地址只在生成时显示一次；如需再次复制，请重新生成（旧地址随即失效）。',
    generate: '生成订阅地址',
    regenerate: '重新生成',
    revoke: '关闭订阅',
    revoked: '订阅地址已关闭',
  },

  webhook: {
    title: '工作群机器人',
    description:
      '把推荐同时推送到企业微信、飞书或钉钉群：在群设置中添加自定义机器人，复制它的 Webhook 地址粘贴到这里。',
    platform: '平台',
    url: 'Webhook 地址',
    placeholders: {
      wecom: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…',
      feishu: 'https://open.feishu.cn/open-apis/bot/v2/hook/…',
      dingtalk: 'https://oapi.dingtalk.com/robot/send?access_token=…',
    },
    secret: '签名密钥（可选）',
    secretHint: '机器人开启了“签名校验/加签”时填写',
    save: '保存机器人',
    saved: '机器人已保存，可以发送测试消息试试',
    test: '发送测试消息',
    remove: '删除机器人',
    removed: '机器人已删除',
    current: (platform: string, hint: string) => `当前：${platform}（${hint}）`,
    signed: '，已设置签名密钥',
  },
} as const;
