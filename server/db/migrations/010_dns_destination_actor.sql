-- A dns Action may use the destination actor as its DNS server: the target actor answers the query.
insert into dns_servers (name, address) values ('Destination Actor', 'destination-actor') on conflict (address) do nothing;
