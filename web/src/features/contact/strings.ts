import { LIMITS } from '@radar/shared';
import { APP_NAME } from '@/config/app';

/** Every text of the contact page. */
export const CONTACT_STRINGS = {
  pageTitle: '联系我们',
  pageSubtitle: '使用中遇到问题？下面的方式可以帮到你。',
  mailSubject: `${APP_NAME} 支持请求`,

  channel: {
    title: '联系本站管理员',
    about: `${APP_NAME}是可以自行部署的科研助手，本站由部署它的机构或个人运营。账号、邮件接收、数据与隐私相关的问题，请直接联系本站管理员。`,
    sendMail: '发送邮件',
    loading: '正在读取联系方式…',
    /** No promise of a reply: an installation may only store the message (no address configured). */
    noEmail: '本站没有公布支持邮箱。可以通过下面的表单给管理员留言；如有回复，会发到你填写的邮箱。',
    orForm: '也可以通过下面的表单给管理员留言。',
    noPassword: '来信或留言时请写明注册邮箱和问题出现的页面，但不要附上你的密码。',
  },

  form: {
    title: '给管理员留言',
    hint: '无需登录。如有回复，会发到你填写的邮箱。',
    name: '姓名（选填）',
    email: '回复邮箱',
    emailPlaceholder: 'name@example.edu',
    subject: '标题',
    subjectPlaceholder: '一句话概括你的问题',
    subjectCounter: (length: number) => `${length}/${LIMITS.feedbackTitleMaxLength}`,
    description: '详细描述',
    descriptionPlaceholder: '请描述遇到的问题，或者你想咨询的事情',
    /** The field bots fill in; people never see it. */
    honeypot: '网站',
    submit: '发送留言',
  },

  thanks: {
    title: '留言已发送',
    /** Whether anyone will answer depends on the installation (the server's message says what happened). */
    body: (email: string) => `如有回复，会发到 ${email}，请留意这个邮箱（也请检查垃圾邮件箱）。`,
    home: '返回首页',
    again: '再写一条',
  },

  errors: {
    failed: '发送留言失败，请稍后重试',
    network: '网络错误，请检查网络连接后重试',
    tooMany: (minutes: number) => `留言过于频繁，请约 ${minutes} 分钟后再试`,
  },
} as const;
