"""The bench's Scrapy spider: crawls the job's seeds and follows every link it finds.

Run by bench/lib/peers.ts as `run_scrapy.py runspider bench_spider.py -a job=JOB.json -s SETTING=VALUE ...`;
the politeness settings are passed with -s there, so that they show in the command line.
"""
import json

import scrapy
from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor


class BenchSpider(scrapy.Spider):
    name = "bench"

    def __init__(self, job, **kwargs):
        super().__init__(**kwargs)
        with open(job, encoding="utf-8") as f:
            self.start_urls = json.load(f)["seeds"]
        self.links = LinkExtractor()

    def parse(self, response):
        if not isinstance(response, HtmlResponse):
            return
        for link in self.links.extract_links(response):
            yield response.follow(link.url, callback=self.parse)
