// A webhook receiver that checks each delivery's Standard Webhooks signature (npm i standardwebhooks).
// WEBHOOK_SECRET=whsec_… PORT=9000 node webhook-receiver.mjs
import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

const webhook = new Webhook(process.env.WEBHOOK_SECRET);
createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      const event = webhook.verify(body, req.headers); // throws unless signed with the secret, within 5 min
      const { website, status } = event.data;
      console.log(`verified ${event.type}${website ? `: ${website.name} is ${status}` : ''}`);
      res.writeHead(204).end(); // any 2xx: delivered; webhook-id repeats on a retry, so de-duplicate by it
    } catch (error) {
      console.log(`refused: ${error.message}`);
      res.writeHead(400).end();
    }
  });
}).listen(Number(process.env.PORT ?? 9000), '127.0.0.1');
