/**
 * Texts of learning from the reader (issue 13), kept free of zod so the web app's page chunks can import
 * them without the schema library (the schemas are in api/learning.schema.ts; the paths in api/paths.ts).
 */

/** Texts of the learning status on /my. */
export const LEARNING_TEXTS = {
  adjusted: (n: number) => `推荐已根据你的 ${n} 次收藏/评分/不感兴趣调整`,
  plain: '推荐目前仅根据你的研究方向',
  reset: '恢复为仅按研究方向推荐',
  resetDone: '已恢复为仅按研究方向推荐',
  dismissedStayHidden: '标记为“不感兴趣”的条目仍不会再出现',
  dismiss: '不感兴趣',
  dismissDone: '已标记为不感兴趣，不会再推荐',
  undo: '撤销',
  /** 👍 and 👎 (issue 23): what a rating asks of the ranking, as the buttons' names. */
  rateUp: '更多此类',
  rateDown: '减少此类',
  rateUpDone: '已记录：更多此类，推荐稍后据此调整',
  rateDownDone: '已记录：减少此类，推荐稍后据此调整',
  rateUndone: '已取消评分',
  learnedOrder: '根据你的评分学习排序',
} as const;
