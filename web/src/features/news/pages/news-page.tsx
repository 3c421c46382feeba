import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /news (spec section 2, "News page"). Guarded. */
export function NewsPage() {
  return (
    <Page title="新闻推荐" subtitle="基于您的研究方向推荐相关学术新闻">
      <UpcomingPageNotice description="届时将根据你的研究方向推荐高校与科研机构的学术新闻。" />
    </Page>
  );
}
