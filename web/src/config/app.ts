/** Product identity shown in the shell, the landing page and the browser tab. */
export const APP_NAME = '科研雷达';
export const APP_TAGLINE = '根据你的研究方向，推荐最新论文与学术新闻';
