import { Page } from '@/components/page/page';
import { UpcomingPageNotice } from '@/components/page/upcoming-page-notice';

/** /reset-password?token= (spec section 2, "Reset password"): new password and confirm. */
export function ResetPasswordPage() {
  return (
    <Page title="重置密码" maxWidth="sm">
      <UpcomingPageNotice description="届时可通过重置邮件中的链接设置新密码。" />
    </Page>
  );
}
