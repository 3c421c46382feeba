/** The texts of the learning section on /my (how the recommendations learn from the reader). */
export const LEARNING_STRINGS = {
  title: '个性化推荐',
  description: '收藏、稍后阅读、读到一半以上和“不感兴趣”的条目会让推荐更贴近你的兴趣。',
  loading: '正在读取推荐的学习状态…',
} as const;
