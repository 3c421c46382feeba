import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /verify-email?email=&from= (spec section 2, "Verify email"): code input, resend with cooldown. */
export function VerifyEmailPage() {
  return (
    <Page title="验证邮箱" maxWidth="sm">
      <UpcomingPageNotice description="届时可输入邮件中的 6 位验证码完成邮箱验证。" />
    </Page>
  );
}
