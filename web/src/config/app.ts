/** Product identity shown in the shell, the landing page and the browser tab. */
export const APP_NAME = '科研雷达';
/**
 * The tagline in phrases: a line may break only between them, never inside a word (推|荐) at any width
 * (the hero keeps each phrase on one line).
 */
export const APP_TAGLINE_PHRASES = ['根据你的研究方向，', '推荐最新论文', '与学术新闻'] as const;
