-- Storing an upload's conversations (thousands of rows at once, before its status reaches 100%)
-- maintained three indexes per row. Listing one upload's conversations reads them through
-- unique (upload_id, conv_index) and sorts its few thousand rows by timestamp in memory, so the
-- (upload_id, timestamp, conv_index) index only slowed every upload down.
drop index if exists pcap_conversations_order_idx;
