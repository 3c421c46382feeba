import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /papers (spec section 2, "Papers recommendation page"). Guarded. */
export function PapersPage() {
  return (
    <Page title="论文推荐" subtitle="基于您的研究方向推荐相关论文">
      <UpcomingPageNotice description="届时将根据你的研究方向推荐最新论文，并支持按发表时间、JCR 分区与相似度筛选。" />
    </Page>
  );
}
