import { findInstitution, findEmail, findName, findPosition } from './src/ai/offline/research-extractor';
for (const t of ['Professor of EECS, University of California, Berkeley. Email: a.b at berkeley dot edu', 'She is a Lecturer at Imperial College London.', 'Max Planck Institute for Informatics, Saarbrücken', 'Dr. Wei Chen, Research Scientist, Google DeepMind. wei.chen@deepmind.com', '王小明 副教授\n浙江大学控制科学与工程学院\nwangxm@zju.edu.cn', '欧阳明，中国科学院院士，南京大学物理学院教授']) {
  console.log(JSON.stringify([findName(t), findEmail(t), findInstitution(t), findPosition(t)]));
}
