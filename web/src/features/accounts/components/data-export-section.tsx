import DownloadRounded from '@mui/icons-material/DownloadRounded';
import FolderZipOutlined from '@mui/icons-material/FolderZipOutlined';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { SectionCard } from '@/components/sections/section-card';
import { getErrorMessage } from '@/lib/api-client';
import { exportMyData } from '../api/account-data';

/** Saves the document as a file; the browser's own download, no page change. */
function saveAsFile(data: unknown, fileName: string): void {
  const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** "Download my data" on /my: profile, keywords, paper states, feedback as one JSON file. */
export function DataExportSection({ onNotify }: { onNotify: (message: string) => void }) {
  const [isBusy, setIsBusy] = useState(false);

  const download = async () => {
    setIsBusy(true);
    try {
      const data = await exportMyData();
      saveAsFile(data, `research-radar-data-${new Date().toISOString().slice(0, 10)}.json`);
      onNotify('数据已下载');
    } catch (error) {
      onNotify(getErrorMessage(error));
    } finally {
      setIsBusy(false);
    }
  };

  return (
    <SectionCard
      id="data-export"
      icon={<FolderZipOutlined />}
      title="下载我的数据"
      actions={
        <Button variant="outlined" startIcon={<DownloadRounded />} onClick={download} disabled={isBusy}>
          {isBusy ? '正在准备…' : '下载数据'}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary">
        下载一个 JSON
        文件，包含你的个人资料、研究方向与研究兴趣、关键词及提醒设置、收藏与稍后阅读、阅读进度、评分与“不感兴趣”标记、标为你的作品的论文、关注的作者、推送设置、推送过的内容（摘要邮件、机器人和关键词提醒）和你提交的反馈。
      </Typography>
    </SectionCard>
  );
}
