/** The texts of the account itself on /my: the page's heading, the sign-in e-mail, basic info and logout. */
export const ACCOUNT_STRINGS = {
  pageTitle: '我的',
  pageSubtitle: '管理账号与研究信息',
  logout: '退出登录',

  account: {
    title: '账号',
    email: '邮箱',
  },

  basic: {
    title: '基本信息',
    name: '姓名',
    position: '职位',
    institution: '机构',
  },
} as const;
