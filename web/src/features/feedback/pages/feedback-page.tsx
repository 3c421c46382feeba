import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /feedback (spec section 2, "Feedback page"). Guarded. */
export function FeedbackPage() {
  return (
    <Page title="意见反馈" maxWidth="md">
      <UpcomingPageNotice description="届时可提交问题反馈、功能建议或使用疑问。" />
    </Page>
  );
}
