import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /my (spec section 2, "Account page"): account, research info, basic info, logout. Guarded. */
export function AccountPage() {
  return (
    <Page title="我的" subtitle="管理账号与研究信息" maxWidth="md">
      <UpcomingPageNotice description="届时可查看账号信息、编辑研究方向，并使用 AI 生成研究信息。" />
    </Page>
  );
}
