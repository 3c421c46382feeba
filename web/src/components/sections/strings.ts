/** The words every editable section of /my shares (research info and basic info edit alike). */
export const SECTION_STRINGS = {
  notFilled: '未填写',
  saved: '已保存',
  edit: '编辑',
  save: '保存',
  cancel: '取消',
} as const;
